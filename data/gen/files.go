package gen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"incidents/data"
	"incidents/data/incident"
	"incidents/data/safefile"
)

// ShardSize is the number of case files per subdirectory written by WriteDir.
const ShardSize = 1000

// ClustersFile is the name of the ground-truth file WriteDir writes.
const ClustersFile = "clusters.json"

// WriteClusters writes cluster id -> member ids as indented JSON with sorted
// keys, to a temporary file renamed into place.
func WriteClusters(path string, clusters map[string][]string) error {
	b, err := MarshalClusters(clusters)
	if err != nil {
		return err
	}
	return data.WriteFileAtomic(path, b)
}

// MarshalClusters renders clusters as the clusters.json document.
func MarshalClusters(clusters map[string][]string) ([]byte, error) {
	keys := make([]string, 0, len(clusters))
	for k := range clusters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(clusters[k])
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "  %s: %s", kb, vb)
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// maxClustersBytes bounds a clusters file: the one of ten million
// generated cases is about 200 MB.
const maxClustersBytes = 1 << 30

// ReadClusters reads a clusters.json file (cluster id -> member case ids).
// A case in two clusters, an empty cluster or a malformed file is an
// *incident.Error naming the file.
func ReadClusters(path string) (map[string][]string, error) {
	b, err := safefile.Read(path, maxClustersBytes)
	var nr *safefile.NotRegularError
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &nr):
		return nil, &incident.Error{Kind: incident.ErrInvalid, File: path, Msg: "not a regular file (" + nr.Type + ")",
			Hint: "give the clusters.json file that 'incidents gen' wrote"}
	case errors.As(err, &tl):
		return nil, &incident.Error{Kind: incident.ErrTooLarge, File: path, Msg: fmt.Sprintf("over the %d-byte limit of a clusters file", maxClustersBytes),
			Hint: "give the clusters.json file that 'incidents gen' wrote"}
	case err != nil:
		return nil, err
	}
	var m map[string][]string
	if err := json.Unmarshal(b, &m); err != nil {
		e := &incident.Error{Kind: incident.ErrSyntax, File: path, Msg: "not a clusters file", Err: err,
			Hint: `expected a JSON object {"C00001": ["GEN-0000001", ...]} as written by 'incidents gen'`}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			e.Line = 1 + bytes.Count(b[:min(int(se.Offset), len(b))], []byte{'\n'})
		case errors.As(err, &te):
			// In the writer's words, never the Go types (map[string][]string).
			je := incident.JSONTypeError(te)
			e.Kind, e.Field, e.Err = incident.ErrType, je.Field, nil
			e.Line = 1 + bytes.Count(b[:min(int(te.Offset), len(b))], []byte{'\n'})
			what := map[reflect.Kind]string{reflect.Map: "the file", reflect.Slice: "a cluster", reflect.String: "a member of a cluster"}[te.Type.Kind()]
			e.Msg = "not a clusters file: " + strings.TrimSpace(what+" "+je.Msg)
		}
		return nil, e
	}
	owner := map[string]string{}
	for k, ids := range m {
		if len(ids) == 0 {
			return nil, (&incident.Error{Kind: incident.ErrEmpty, File: path, Field: k, Msg: "cluster has no members"}).WithHint("remove the cluster or list its case ids")
		}
		for _, id := range ids {
			if o, dup := owner[id]; dup {
				msg := fmt.Sprintf("case %s is also in cluster %s", id, o)
				if o == k {
					msg = fmt.Sprintf("case %s is listed twice", id)
				}
				return nil, (&incident.Error{Kind: incident.ErrDuplicate, File: path, Field: k, Msg: msg}).WithHint("each case belongs to at most one cluster, once")
			}
			owner[id] = k
		}
	}
	return m, nil
}

// CaseFile is the path of case i below a WriteDir directory:
// "0000/GEN-0000001.json".
func CaseFile(i int) string {
	return filepath.Join(fmt.Sprintf("%04d", i/ShardSize), CaseID(i)+".json")
}

// MarshalCase renders one case as the case JSON document (indented, with a
// trailing newline).
func MarshalCase(in *incident.Incident) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(in); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteDir generates the corpus of opt case by case into dir: one case JSON
// file per case in subdirectories of ShardSize files, and clusters.json. The
// corpus is written into a temporary sibling directory that is renamed to dir
// at the end, so a failure leaves no half-written corpus; dir must not exist
// or be empty. progress, when not nil, is called with the count written.
// Cancelling ctx stops before the next case and removes the temporary
// directory.
func WriteDir(ctx context.Context, dir string, opt Options, progress func(done int)) error {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return (&incident.Error{Kind: incident.ErrInvalid, File: dir, Msg: "output directory is not empty"}).WithHint("choose a new directory or remove this one")
	} else if err == nil {
		if err := os.Remove(dir); err != nil {
			return err
		}
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".partial-")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	p := NewPlan(opt)
	i := 0
	err = p.Each(func(in *incident.Incident) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i%ShardSize == 0 {
			if err := os.Mkdir(filepath.Join(tmp, fmt.Sprintf("%04d", i/ShardSize)), 0o755); err != nil {
				return err
			}
		}
		b, err := MarshalCase(in)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, CaseFile(i)), b, 0o644); err != nil {
			return err
		}
		i++
		if progress != nil {
			progress(i)
		}
		return nil
	})
	if err != nil {
		return err
	}
	cb, err := MarshalClusters(p.Clusters())
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, ClustersFile), cb, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	ok = true
	return nil
}

// WriteJSONL streams the corpus of opt to w as one compact case JSON
// document per line.
func WriteJSONL(w io.Writer, opt Options) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := Each(opt, func(in *incident.Incident) error { return enc.Encode(in) }); err != nil {
		return err
	}
	return bw.Flush()
}
