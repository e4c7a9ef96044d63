package gen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden pins the exact output of a small corpus: any change to the
// grammar, the vocabularies or the random streams shows up here. After an
// intended change, run: go test ./data/gen -run Golden -update
func TestGolden(t *testing.T) {
	opt := Options{N: 24, Seed: 1, ClusterSize: 4}
	var got bytes.Buffer
	if err := WriteJSONL(&got, opt); err != nil {
		t.Fatal(err)
	}
	cl, err := MarshalClusters(Clusters(opt))
	if err != nil {
		t.Fatal(err)
	}
	got.Write(cl)
	path := filepath.Join("testdata", "seed1-n24.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		gl, wl := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("output differs from %s at line %d:\n got: %.300s\nwant: %.300s\n(run with -update after an intended change)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("output differs from %s in length (%d vs %d lines)", path, len(gl), len(wl))
	}
}

func FuzzReadClusters(f *testing.F) {
	f.Add([]byte(`{"C00001": ["GEN-0000001", "GEN-0000002"]}`))
	f.Add([]byte(`{"C1": []}`))
	f.Add([]byte(`{"C1": ["a"], "C2": ["a"]}`))
	f.Add([]byte(`[1, 2]`))
	f.Add([]byte("{\n\"C1\": [\"a\",\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, doc []byte) {
		path := filepath.Join(dir, "c.json")
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadClusters(path)
		if err != nil {
			return
		}
		seen := map[string]string{}
		for k, ids := range m {
			if len(ids) == 0 {
				t.Fatalf("accepted empty cluster %q", k)
			}
			for _, id := range ids {
				if _, ok := seen[id]; ok {
					t.Fatalf("accepted %q twice", id)
				}
				seen[id] = k
			}
		}
	})
}
