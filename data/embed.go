package data

import (
	"embed"
	"io/fs"
)

//go:embed cases labels
var files embed.FS

// Cases returns the bundled case files (cases/*.json).
func Cases() fs.FS {
	sub, err := fs.Sub(files, "cases")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}

// Labels returns the bundled evaluation labels (labels/*.yaml).
func Labels() fs.FS {
	sub, err := fs.Sub(files, "labels")
	if err != nil {
		panic(err)
	}
	return sub
}
