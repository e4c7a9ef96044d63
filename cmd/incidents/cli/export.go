package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"incidents/data/store"
)

func init() { register(newExportCmd) }

// exportFormats are the file formats of 'incidents export'.
var exportFormats = []string{"parquet", "csv", "json"}

func newExportCmd(app *App) *cobra.Command {
	var (
		format, out string
		force       bool
	)
	cmd := &cobra.Command{
		Use:   "export --out DIR [--format parquet|csv|json] [--force]",
		Short: "Write every public view to files any DuckDB, Spark or Trino reads",
		Long: `export writes each public view (incidents, durations, tags, related, ...)
into DIR: Parquet partitioned by year where the view has a year column
(DIR/incidents/year=2024/data_0.parquet) and one file per view otherwise
(DIR/tags/tags.parquet), or one CSV (with header) or JSON-lines file per view
(DIR/incidents.csv). DIR/schema.json describes every column and row count.

DIR must be empty or absent; --force replaces a previous export in DIR
(and refuses a directory holding anything else). The export is
written into a temporary directory beside DIR and renamed into place, so a
failed export leaves nothing half-written.`,
		Example: `  incidents export --out export/
  incidents export --format csv --out csv/ --force
  duckdb -c "SELECT year, count(*) FROM read_parquet('export/incidents/**/*.parquet', hive_partitioning=true) GROUP BY ALL ORDER BY 1"`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&format, "format", "parquet", "file format: "+strings.Join(exportFormats, "|"))
	cmd.Flags().StringVar(&out, "out", "", "directory to write (required)")
	cmd.Flags().BoolVar(&force, "force", false, "replace a previous export in DIR")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ok := false
		for _, f := range exportFormats {
			ok = ok || f == format
		}
		if !ok {
			return usagef("--format %q is not one of %s", format, strings.Join(exportFormats, "|"))
		}
		if out == "" {
			return usagef("--out DIR is required")
		}
		if err := cleanLeftovers(app, out); err != nil {
			return err
		}
		if err := checkExportDir(out, force); err != nil {
			return err
		}
		s, err := openStore(cmd.Context(), app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		start := time.Now()
		m, err := exportViews(cmd.Context(), s, out, format)
		if err != nil {
			return err
		}
		total := int64(0)
		for _, v := range m.Views {
			total += v.Rows
			fmt.Fprintf(app.Stderr, "  %-14s %8d rows  %s\n", v.Name, v.Rows, v.Path)
		}
		fmt.Fprintf(app.Stderr, "export: %d views, %d rows, %s -> %s in %s\n", len(m.Views), total, format, out, time.Since(start).Round(time.Millisecond))
		return nil
	}
	onStop(cmd, "nothing was written (the temporary directory was removed)")
	return cmd
}

// checkExportDir refuses a file, a non-empty directory without force, and
// with force any directory that is not a previous export.
func checkExportDir(out string, force bool) error {
	fi, err := os.Stat(out)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return usagef("--out %s is a file, not a directory", out)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	if len(entries) > 0 && !force {
		return usagef("--out %s is not empty (%d entries); pass --force to replace it", out, len(entries))
	}
	// --force replaces a previous export only: never a directory holding
	// anything an export does not write (a database, the user's files).
	exported := map[string]bool{"schema.json": true}
	for _, v := range store.Views() {
		exported[v.Name] = true // parquet: a directory per view
		exported[v.Name+".csv"] = true
		exported[v.Name+".json"] = true
	}
	for _, e := range entries {
		if !exported[e.Name()] {
			return notAnExport(out, "holds "+e.Name()+", which no export writes")
		}
	}
	if len(entries) == 0 {
		return nil
	}
	return previousExport(out, entries)
}

func notAnExport(out, what string) error {
	return usagef("--out %s %s; --force only replaces a previous export: choose a new or empty directory", out, what)
}

// previousExport accepts out only as an export wrote it: its schema.json
// is an export's manifest, every entry is a path that manifest lists, of
// the kind an export writes (a file, or a view's directory of Parquet
// files). A name alone proves nothing: a PagerDuty download is called
// incidents.csv, and a folder of postmortems may be called incidents.
func previousExport(out string, entries []os.DirEntry) error {
	const maxManifest = 16 << 20
	path := filepath.Join(out, "schema.json")
	var m exportManifest
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode().IsRegular() && fi.Size() <= maxManifest {
		var b []byte
		if b, err = os.ReadFile(path); err == nil {
			err = json.Unmarshal(b, &m)
		}
	} else if err == nil {
		err = errors.New("not a manifest")
	}
	if err != nil || !slices.Contains(exportFormats, m.Format) || len(m.Views) == 0 {
		return notAnExport(out, "has no schema.json written by 'incidents export'")
	}
	isDir := map[string]bool{"schema.json": false}
	for _, v := range m.Views {
		first, _, nested := strings.Cut(v.Path, "/")
		isDir[first] = nested
	}
	for _, e := range entries {
		dir, listed := isDir[e.Name()]
		switch {
		case !listed:
			return notAnExport(out, "holds "+e.Name()+", which its schema.json does not list")
		case dir && !e.IsDir(), !dir && !e.Type().IsRegular():
			return notAnExport(out, "holds "+e.Name()+", which is not what an export writes there")
		case dir:
			if err := onlyParquet(out, e.Name()); err != nil {
				return err
			}
		}
	}
	return nil
}

// onlyParquet refuses a view's directory of a previous export that holds
// anything but Parquet files (in year=… partitions or not).
func onlyParquet(out, view string) error {
	root := filepath.Join(out, view)
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".parquet") {
			return nil
		}
		rel, _ := filepath.Rel(out, p)
		return notAnExport(out, "holds "+rel+", which no export writes")
	})
}

// exportManifest is DIR/schema.json.
type exportManifest struct {
	Format    string         `json:"format"`
	CreatedAt time.Time      `json:"created_at"`
	Views     []exportedView `json:"views"`
}

type exportedView struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Path        string         `json:"path"`
	PartitionBy string         `json:"partition_by,omitempty"`
	Rows        int64          `json:"rows"`
	Columns     []store.Column `json:"columns"`
}

// exportViews writes every view into a temporary directory beside out and
// renames it to out when all succeeded.
func exportViews(ctx context.Context, s *store.Store, out, format string) (*exportManifest, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, fmt.Sprintf("%s%d-*", exportTempPrefix(abs), os.Getpid()))
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it private
		return nil, err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	m := &exportManifest{Format: format, CreatedAt: time.Now().UTC().Truncate(time.Second)}
	for _, v := range store.Views() {
		ev := exportedView{Name: v.Name, Description: v.Description, Columns: v.Columns}
		// Views of cases (a year and a quarter column) are partitioned by
		// the case year; an empty one is written as a single file so that
		// its columns can still be read.
		hasYear, hasQuarter := false, false
		for _, c := range v.Columns {
			hasYear = hasYear || c.Name == "year"
			hasQuarter = hasQuarter || c.Name == "quarter"
		}
		partition := hasYear && hasQuarter
		if partition && format == "parquet" {
			n, err := s.ViewRows(ctx, v.Name)
			if err != nil {
				return nil, fmt.Errorf("exporting view %s: %w", v.Name, err)
			}
			partition = n > 0
		}
		var target, partitionBy string
		switch format {
		case store.ExportParquet:
			if partition {
				ev.Path, ev.PartitionBy = v.Name+"/", "year"
				target, partitionBy = filepath.Join(tmp, v.Name), "year"
			} else {
				ev.Path = v.Name + "/" + v.Name + ".parquet"
				if err := os.Mkdir(filepath.Join(tmp, v.Name), 0o755); err != nil {
					return nil, err
				}
				target = filepath.Join(tmp, v.Name, v.Name+".parquet")
			}
		case store.ExportCSV, store.ExportJSON:
			ev.Path = v.Name + "." + format
			target = filepath.Join(tmp, ev.Path)
		}
		if ev.Rows, err = s.ExportView(ctx, v.Name, target, format, partitionBy); err != nil {
			return nil, fmt.Errorf("exporting view %s: %w", v.Name, err)
		}
		m.Views = append(m.Views, ev)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "schema.json"), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	if err := replaceDir(tmp, abs); err != nil {
		return nil, err
	}
	done = true
	return m, nil
}

// replaceDir moves the finished export to out; an existing out is moved
// aside first and removed only after the rename succeeded.
func replaceDir(tmp, out string) error {
	if _, err := os.Stat(out); err == nil {
		old := tmp + ".old"
		if err := os.Rename(out, old); err != nil {
			return fmt.Errorf("moving the old %s aside: %w", out, err)
		}
		if err := os.Rename(tmp, out); err != nil {
			os.Rename(old, out)
			return fmt.Errorf("moving the export into %s: %w", out, err)
		}
		return os.RemoveAll(old)
	}
	if err := os.Rename(tmp, out); err != nil {
		return fmt.Errorf("moving the export into %s: %w", out, err)
	}
	return nil
}
