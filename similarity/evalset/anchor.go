package evalset

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"incidents/data/incident"
	"incidents/similarity"
)

// Python is the interpreter the anchor runs under: Debian's, which has the
// Debian python3-sklearn package.
const Python = "/usr/bin/python3"

// AnchorName is the mode name of the plain TF-IDF anchor in reports.
const AnchorName = "plain TF-IDF (scikit-learn)"

// Anchor runs the scikit-learn ranking script (../shared/anchors/
// tfidf_rank_sklearn.py: TfidfVectorizer with English stop words and
// sublinear tf, cosine, top 10) on exactly the text the index reads from
// each case, and returns its lists as links in rank order (without scores).
func Anchor(ctx context.Context, script string, cases []*incident.Incident) (map[string][]incident.Link, error) {
	if _, err := os.Stat(script); err != nil {
		return nil, &incident.Error{Kind: incident.ErrMissing, File: script, Msg: "no anchor script", Err: err,
			Hint: "give ../shared/anchors/tfidf_rank_sklearn.py"}
	}
	dir, err := os.MkdirTemp("", "incidents-anchor-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	// File names are positions, so any id is safe on disk.
	byName := map[string]string{}
	for i, c := range cases {
		name := fmt.Sprintf("c%06d", i)
		byName[name] = c.ID
		if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(similarity.CaseText(c)), 0o644); err != nil {
			return nil, err
		}
	}
	var out, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, Python, script, dir)
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		return nil, &incident.Error{Kind: incident.ErrMissing, File: script, Msg: fmt.Sprintf("the anchor failed: %v: %s", err, msg),
			Hint: "install Debian's python3-sklearn (apt-get install python3-sklearn)"}
	}
	var ranked map[string][]string
	if err := json.Unmarshal(out.Bytes(), &ranked); err != nil {
		return nil, fmt.Errorf("anchor output: %w", err)
	}
	links := make(map[string][]incident.Link, len(ranked))
	for from, tos := range ranked {
		a, ok := byName[from]
		if !ok {
			return nil, fmt.Errorf("anchor output names an unknown file %q", from)
		}
		ls := make([]incident.Link, 0, len(tos))
		for r, to := range tos {
			b, ok := byName[to]
			if !ok {
				return nil, fmt.Errorf("anchor output names an unknown file %q", to)
			}
			ls = append(ls, incident.Link{From: a, To: b, Rank: r + 1})
		}
		links[a] = ls
	}
	return links, nil
}
