package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity/links"
)

func init() { register(newGenCmd) }

// genBatch is the number of cases per store transaction in gen --db.
const genBatch = 10000

func newGenCmd(app *App) *cobra.Command {
	var (
		opt   gen.Options
		out   string
		batch int
	)
	cmd := &cobra.Command{
		Use:   "gen",
		Short: "Generate a synthetic corpus with planted related-case clusters",
		Long: `gen writes a deterministic synthetic corpus: realistic-looking postmortems
built from a phrase grammar per failure mode, with lognormal TTD/TTR (some
unknown), human tags from the controlled vocabulary, and planted clusters
of near-related cases whose membership is the ground truth for evaluating
related-case links. The same options always give byte-identical output.

With --out DIR it writes one case JSON file per case in subdirectories of
1000 files, plus DIR/clusters.json (cluster id -> member case ids); DIR must
be new or empty; 'incidents ingest DIR' imports the cases (it skips
clusters.json) and 'incidents eval --clusters DIR/clusters.json' scores
links against the clusters. With --db FILE it stores the cases straight into the
database in batches of --batch cases (one transaction each) and writes the
clusters to FILE.clusters.json; --db must be given explicitly here, so the
default database is never filled with synthetic cases by accident.`,
		Example: `  incidents gen --n 100000 --seed 7 --out /tmp/corpus
  incidents --db /tmp/syn.duckdb ingest /tmp/corpus
  incidents gen --n 100000 --seed 7 --db /tmp/synthetic.duckdb
  incidents gen --n 2000 --cluster-size 5 --start-year 2018 --end-year 2024 --out corpus`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().IntVar(&opt.N, "n", gen.DefaultN, "number of cases")
	cmd.Flags().Int64Var(&opt.Seed, "seed", 1, "random seed (same seed, same corpus)")
	cmd.Flags().IntVar(&opt.ClusterSize, "cluster-size", gen.DefaultClusterSize, "members per planted cluster (at least 2)")
	cmd.Flags().IntVar(&opt.StartYear, "start-year", gen.DefaultStartYear, "first year of incident start times")
	cmd.Flags().IntVar(&opt.EndYear, "end-year", gen.DefaultEndYear, "last year of incident start times")
	cmd.Flags().StringVar(&out, "out", "", "write case JSON files and clusters.json into this new directory")
	cmd.Flags().IntVar(&batch, "batch", genBatch, "cases per database transaction with --db")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		dbSet := cmd.Flag("db") != nil && cmd.Flag("db").Changed
		switch {
		case out == "" && !dbSet:
			return usagef("give --out DIR or --db FILE (see 'incidents gen --help')")
		case out != "" && dbSet:
			return usagef("give either --out DIR or --db FILE, not both")
		case batch < 1:
			return usagef("--batch %d must be at least 1", batch)
		case opt.N < 1 || opt.N > 10_000_000:
			return usagef("--n %d is out of range (1 to 10000000)", opt.N)
		case opt.ClusterSize < 2:
			return usagef("--cluster-size %d is too small (at least 2)", opt.ClusterSize)
		case opt.StartYear < 1970 || opt.EndYear > time.Now().Year() || opt.EndYear < opt.StartYear:
			// Cases past this year would be refused as implausible dates.
			return usagef("--start-year %d and --end-year %d must be ordered years between 1970 and %d", opt.StartYear, opt.EndYear, time.Now().Year())
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		started := time.Now()
		bar := progressFor(app.Stderr, "generating")
		progress := func(done int) {
			if bar != nil {
				bar(done, opt.N)
			}
		}
		plan := gen.NewPlan(opt)
		nClusters := len(plan.Clusters())
		var where, clustersPath string
		if out != "" {
			if err := gen.WriteDir(ctx, out, opt, progress); err != nil {
				return err
			}
			where, clustersPath = out, filepath.Join(out, gen.ClustersFile)
		} else {
			// A database this run creates is removed again if the run
			// fails or is stopped: half a corpus is no ground truth, and
			// gen refuses a database that holds cases.
			_, statErr := os.Stat(app.DBPath)
			created := errors.Is(statErr, fs.ErrNotExist)
			s, err := createStore(ctx, app, false)
			if err != nil {
				return err
			}
			ok := false
			defer func() {
				if created && !ok {
					s.Close()
					os.Remove(app.DBPath)
					os.Remove(app.DBPath + ".wal")
				}
			}()
			// One generated corpus per database: its clusters file is the
			// ground truth of exactly these cases.
			if n, err := s.Count(ctx); err != nil || n > 0 {
				s.Close()
				if err != nil {
					return err
				}
				return usagef("--db %s already holds %d cases; generate into a new database file", app.DBPath, n)
			}
			rep, err := genToStore(ctx, s, plan, batch, progress)
			if cerr := s.Close(); err == nil {
				err = cerr
			}
			if err != nil && created {
				return fmt.Errorf("%w (the new database %s was removed)", err, app.DBPath)
			} else if err != nil {
				return fmt.Errorf("%w (the batches stored before the failure stay in %s)", err, app.DBPath)
			}
			clustersPath = app.DBPath + ".clusters.json"
			if err := gen.WriteClusters(clustersPath, plan.Clusters()); err != nil {
				return err
			}
			where, ok = app.DBPath, true
			fmt.Fprintf(app.Stderr, "store: %d new, %d updated, %d unchanged\n", rep.New, rep.Updated, rep.Unchanged)
		}
		o := plan.Options()
		fmt.Fprintf(app.Stdout, "wrote %d cases (seed %d, %d clusters of %d, %d singletons) to %s; ground truth in %s\n",
			o.N, o.Seed, nClusters, o.ClusterSize, o.N-nClusters*o.ClusterSize, where, clustersPath)
		fmt.Fprintf(app.Stderr, "gen: %d cases in %s\n", o.N, time.Since(started).Round(time.Millisecond))
		return nil
	}
	onStop(cmd, "a database or directory it was creating was removed")
	return cmd
}

var errGenStopped = errors.New("generation stopped")

// genReport totals the store's answers over all batches.
type genReport struct{ New, Updated, Unchanged int }

// genToStore generates the plan's cases and upserts them in batches of size
// batch; generation of the next batch overlaps the store's write of the
// previous one.
func genToStore(ctx context.Context, s *store.Store, plan *gen.Plan, batch int, progress func(int)) (*genReport, error) {
	rep := &genReport{}
	o := plan.Options()
	run := store.RunInfo{Source: fmt.Sprintf("gen --n %d --seed %d --cluster-size %d", o.N, o.Seed, o.ClusterSize), Started: time.Now(), Analysis: links.StoredAnalysis()}
	batches := make(chan []*incident.Incident, 1)
	errc := make(chan error, 1)
	failed := make(chan struct{})
	go func() {
		done := 0
		var err error
		for b := range batches {
			if err != nil {
				continue
			}
			var r *store.IngestReport
			r, err = s.Upsert(ctx, b, run)
			if err != nil {
				close(failed)
				continue
			}
			rep.New += r.New
			rep.Updated += r.Updated
			rep.Unchanged += r.Unchanged
			done += len(b)
			if progress != nil {
				progress(done)
			}
		}
		errc <- err
	}()
	cur := make([]*incident.Incident, 0, batch)
	genErr := plan.Each(func(in *incident.Incident) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		select {
		case <-failed:
			return errGenStopped
		default:
		}
		cur = append(cur, in)
		if len(cur) == batch {
			batches <- cur
			cur = make([]*incident.Incident, 0, batch)
		}
		return nil
	})
	if genErr == nil && len(cur) > 0 {
		batches <- cur
	}
	close(batches)
	if err := <-errc; err != nil {
		return nil, fmt.Errorf("storing generated cases: %w", err)
	}
	if genErr != nil {
		return nil, genErr
	}
	return rep, nil
}
