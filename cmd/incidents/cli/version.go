package cli

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/taxonomy"
)

func init() { register(newVersionCmd) }

// Version is the release of the binary, set at build time with
// -ldflags "-X incidents/cmd/incidents/cli.Version=v1.2.3"; empty, the
// module version and VCS stamp Go records in the binary are used.
var Version string

// VersionInfo is what 'incidents version' prints.
type VersionInfo struct {
	Version  string `json:"version"`            // v1.2.3, or the module version, or "(devel)"
	Commit   string `json:"commit,omitempty"`   // VCS revision the binary was built from
	Time     string `json:"time,omitempty"`     // its commit time
	Modified bool   `json:"modified,omitempty"` // built from a tree with uncommitted changes
	Go       string `json:"go"`
	Platform string `json:"platform"`
	// Schema is the database layout this build writes (and the newest it
	// reads); CaseSchema the case JSON format.
	Schema     int `json:"schema"`
	CaseSchema int `json:"case_schema"`
	// Vocabulary is the embedded controlled vocabulary.
	Vocabulary VocabVersion `json:"vocabulary"`
	// Database is the --db file, when it exists.
	Database *DatabaseVersion `json:"database,omitempty"`
}

// VocabVersion identifies the vocabulary: its version field and the
// SHA-256 of the file (which changes with every term).
type VocabVersion struct {
	Version int    `json:"version"`
	Digest  string `json:"sha256"`
	Facets  int    `json:"facets"`
	Terms   int    `json:"terms"`
}

// DatabaseVersion is the schema version recorded in a database file.
type DatabaseVersion struct {
	Path   string `json:"path"`
	Schema int    `json:"schema,omitempty"`
	Cases  int    `json:"cases"`
	// Problem says why the file could not be read (locked, newer schema).
	Problem string `json:"problem,omitempty"`
}

func newVersionCmd(app *App) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of the binary, its database schema and its vocabulary",
		Long: `version prints the release and commit the binary was built from, the
database schema version it writes (and the newest it reads), the case JSON
schema, and the version and digest of the embedded vocabulary. When the
--db file exists it also prints that file's schema version and case count.
'incidents --version' prints the same.`,
		Example: `  incidents version
  incidents --version
  incidents version -o json`,
		Args: cobra.NoArgs,
	}
	validate := outputFlag(cmd, &format, FormatTable, FormatJSON)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		return writeVersion(cmd.Context(), app, format)
	}
	return cmd
}

// versionInfo gathers the versions; the database is read when it exists.
func versionInfo(ctx context.Context, app *App) VersionInfo {
	v := VersionInfo{Version: Version, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH,
		Schema: store.SchemaVersion, CaseSchema: incident.SchemaVersion}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v.Version == "" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "(devel)"
	}
	voc := taxonomy.Default()
	v.Vocabulary = VocabVersion{Version: voc.Version, Digest: taxonomy.VocabularyDigest(), Facets: len(voc.Facets)}
	for _, f := range voc.Facets {
		v.Vocabulary.Terms += len(f.Terms)
	}
	if _, err := os.Stat(app.DBPath); err == nil {
		d := &DatabaseVersion{Path: app.DBPath}
		if ctx == nil {
			ctx = context.Background()
		}
		s, err := store.Open(ctx, app.DBPath, store.Options{ReadOnly: true})
		if err == nil {
			d.Schema, err = s.SchemaVersion(ctx)
			if err == nil {
				d.Cases, err = s.Count(ctx)
			}
			s.Close()
		}
		if err != nil {
			d.Problem = err.Error()
		}
		v.Database = d
	}
	return v
}

func writeVersion(ctx context.Context, app *App, format string) error {
	v := versionInfo(ctx, app)
	if format == FormatJSON {
		return writeJSON(app.Stdout, v)
	}
	w := app.Stdout
	fmt.Fprintf(w, "incidents %s", v.Version)
	if v.Commit != "" {
		fmt.Fprintf(w, " (commit %s", shortCommit(v.Commit))
		if v.Time != "" {
			fmt.Fprintf(w, ", %s", v.Time)
		}
		if v.Modified {
			fmt.Fprint(w, ", modified")
		}
		fmt.Fprint(w, ")")
	}
	fmt.Fprintf(w, ", %s %s\n", v.Go, v.Platform)
	fmt.Fprintf(w, "database schema %d (written by this build, the newest it reads); case JSON schema %d\n", v.Schema, v.CaseSchema)
	fmt.Fprintf(w, "vocabulary version %d (sha256 %s, %d facets, %d terms)\n", v.Vocabulary.Version, v.Vocabulary.Digest[:12], v.Vocabulary.Facets, v.Vocabulary.Terms)
	if d := v.Database; d != nil {
		if d.Problem != "" {
			fmt.Fprintf(w, "%s: %s\n", d.Path, d.Problem)
		} else {
			fmt.Fprintf(w, "%s: schema %d, %s\n", d.Path, d.Schema, plural(d.Cases, "case", "cases"))
		}
	}
	return nil
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
