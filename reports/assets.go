package reports

import (
	"embed"
	"errors"
	"io/fs"
)

// assets holds the files make assets fetches (echarts.min.js and its
// licence) and the committed README.md that keeps the pattern matching in
// a fresh clone.
//
//go:embed assets
var assets embed.FS

// assetFS is where Render looks for the assets (tests swap it).
var assetFS fs.FS = assets

// ErrNoECharts is returned by Render when the build has no ECharts library.
var ErrNoECharts = errors.New("reports: assets/echarts.min.js is missing from this build: run make assets, then rebuild")

// echartsJS returns the embedded ECharts library and its licence text.
func echartsJS() (js, license []byte, err error) {
	js, err = fs.ReadFile(assetFS, "assets/echarts.min.js")
	if err != nil || len(js) == 0 {
		return nil, nil, ErrNoECharts
	}
	license, _ = fs.ReadFile(assetFS, "assets/ECHARTS-LICENSE")
	return js, license, nil
}
