package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"incidents/data/console"
	"incidents/data/store"
	"incidents/similarity"
	"incidents/similarity/links"
)

// Options configure an Engine.
type Options struct {
	// Path is the database file.
	Path string
	// Params configure the similarity index; nil takes the parameters
	// stored with the current link generation (links.Recipe), else the
	// defaults.
	Params *similarity.Params
	// PollInterval is how often the file is checked for changes (default
	// 2s); a negative value turns the watcher off (Reload still works).
	PollInterval time.Duration
	// Logf receives one line per reload and per failed reload (nil: quiet).
	Logf func(format string, args ...any)
	// SQLWorker starts a process that runs console.RunWorker: ad hoc SQL
	// runs there, never in this process (nil: SQL is refused).
	SQLWorker func(ctx context.Context) *exec.Cmd
	// SQLWorkers is how many statements run at once
	// (0: console.DefaultWorkers); more are refused with console.ErrBusy.
	SQLWorkers int
	// TempDir holds the copies of the public views each snapshot writes
	// (default os.TempDir()).
	TempDir string
}

// DefaultPollInterval is how often Watch looks at the database file.
const DefaultPollInterval = 2 * time.Second

// ErrBusy is wrapped by errors returned when the database file is held by a
// writer in another process; the message names the holder.
var ErrBusy = errors.New("database busy")

// Engine answers queries from one in-memory snapshot of a database file and
// swaps in a new snapshot when the file changes. It is safe for concurrent
// use.
type Engine struct {
	opt      Options
	cur      atomic.Pointer[Snapshot]
	reloadMu sync.Mutex
	gen      int64 // snapshot counter, under reloadMu

	copyDir string        // this engine's copies of the views
	pool    *console.Pool // nil when SQL is refused

	stop chan struct{}
	once sync.Once
}

// Open loads the first snapshot of the database at opt.Path. The file is
// opened read-only and closed again before Open returns.
func Open(ctx context.Context, opt Options) (*Engine, error) {
	if opt.PollInterval == 0 {
		opt.PollInterval = DefaultPollInterval
	}
	e := &Engine{opt: opt, stop: make(chan struct{})}
	if opt.SQLWorker != nil {
		e.pool = console.NewPool(opt.SQLWorker, opt.SQLWorkers)
	}
	dir, err := makeCopyDir(opt.TempDir)
	if err != nil {
		return nil, fmt.Errorf("making a directory for the copies of the views: %w", err)
	}
	e.copyDir = dir
	if _, err := e.Reload(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// Loading a large corpus leaves about as much garbage as the snapshot
	// it builds; collect it now rather than in the first seconds of
	// serving, where marking a heap of gigabytes competes with requests.
	runtime.GC()
	return e, nil
}

// Snapshot returns the current snapshot. Use one snapshot for a whole
// request so that every figure comes from the same generation.
func (e *Engine) Snapshot() *Snapshot { return e.cur.Load() }

// Path returns the database file.
func (e *Engine) Path() string { return e.opt.Path }

func (e *Engine) logf(format string, args ...any) {
	if e.opt.Logf != nil {
		e.opt.Logf(format, args...)
	}
}

// fileState is what the watcher compares: size and modification time of
// the database file and of its write-ahead log.
type fileState struct {
	Size, WALSize   int64
	ModNs, WALModNs int64
}

func statFile(path string) (fileState, error) {
	var st fileState
	fi, err := os.Stat(path)
	if err != nil {
		return st, err
	}
	st.Size, st.ModNs = fi.Size(), fi.ModTime().UnixNano()
	if w, err := os.Stat(path + ".wal"); err == nil {
		st.WALSize, st.WALModNs = w.Size(), w.ModTime().UnixNano()
	}
	return st, nil
}

// openRO opens the file read-only, explaining a lock held by a writer.
func (e *Engine) openRO(ctx context.Context) (*store.Store, error) {
	st, err := store.Open(ctx, e.opt.Path, store.Options{ReadOnly: true})
	if err != nil {
		if errors.Is(err, store.ErrLocked) {
			return nil, fmt.Errorf("%w: %s is being written by another process; the server keeps the previous snapshot and retries: %v", ErrBusy, e.opt.Path, err)
		}
		return nil, err
	}
	return st, nil
}

// Reload loads a new snapshot when the database file changed since the
// current one was loaded (or when none is loaded) and swaps it in
// atomically. It reports whether a new snapshot was installed. On error the
// current snapshot stays. A writer waiting for the file (store.OpenWait)
// goes first: Reload does not start while one waits, and a load in progress
// lets go of the file at its next case, link list or copied table when one
// starts to wait (errYield); the next Reload tries again.
func (e *Engine) Reload(ctx context.Context) (bool, error) {
	cur := e.cur.Load()
	if cur != nil {
		if fs, err := statFile(e.opt.Path); err == nil && fs == cur.file {
			return false, nil
		}
	}
	if cur != nil && store.WriterWaiting(e.opt.Path) {
		return false, errYield
	}
	st, err := e.openRO(ctx)
	if err != nil {
		return false, err
	}
	defer st.Close()
	y := &yielder{}
	if cur != nil { // the first load has no snapshot to fall back on
		y.watch(e.opt.Path)
	}
	defer y.stop()
	return e.reloadFrom(ctx, st, y.check, func() { st.Close(); y.stop() })
}

// errYield is a load abandoned for a waiting writer.
var errYield = fmt.Errorf("%w: a writer is waiting for the file; the server keeps the previous snapshot and loads after it", ErrBusy)

// yieldPoll is how often a load looks for a waiting writer.
const yieldPoll = 50 * time.Millisecond

// yielder tells a load that a writer started to wait for the file. The
// load stops at its next case, link list or copied table and closes the
// file. It does not cancel DuckDB's statements: every statement of a
// load ends normally, which is what leaves no trace in the process.
type yielder struct {
	waiting atomic.Bool
	done    chan struct{}
	once    sync.Once
}

// watch polls for waiting writers of the database at path until stop.
func (y *yielder) watch(path string) {
	y.done = make(chan struct{})
	go func() {
		t := time.NewTicker(yieldPoll)
		defer t.Stop()
		for {
			select {
			case <-y.done:
				return
			case <-t.C:
				if store.WriterWaiting(path) {
					y.waiting.Store(true)
					return
				}
			}
		}
	}()
}

func (y *yielder) stop() {
	y.once.Do(func() {
		if y.done != nil {
			close(y.done)
		}
	})
}

// check is errYield once a writer waits.
func (y *yielder) check() error {
	if y.waiting.Load() {
		return errYield
	}
	return nil
}

// reloadFrom loads from an open store when the file differs from the
// current snapshot. The caller holds the file open (read-only), so no
// writer can change it meanwhile. release is called as soon as the data
// is read and copied, before the index is built, so that writers wait as
// little as possible.
func (e *Engine) reloadFrom(ctx context.Context, st *store.Store, check func() error, release func()) (bool, error) {
	e.reloadMu.Lock()
	defer e.reloadMu.Unlock()
	fs, err := statFile(e.opt.Path)
	if err != nil {
		return false, err
	}
	if cur := e.cur.Load(); cur != nil && cur.file == fs {
		return false, nil
	}
	started := time.Now()
	if e.cur.Load() != nil {
		e.logf("loading snapshot %d: the database changed", e.gen+1)
	}
	snap, ovs, err := read(ctx, st, check)
	if err != nil {
		if errors.Is(err, errYield) {
			return false, errYield
		}
		return false, fmt.Errorf("loading %s: %w", e.opt.Path, err)
	}
	snap.copy = &viewCopy{path: filepath.Join(e.copyDir, fmt.Sprintf("snapshot-%d.duckdb", e.gen+1))}
	if err := st.WriteCopy(ctx, snap.copy.path, check); err != nil {
		if errors.Is(err, errYield) {
			return false, errYield
		}
		return false, fmt.Errorf("loading %s: %w", e.opt.Path, err)
	}
	readTime := time.Since(started)
	release()
	if err := ctx.Err(); err != nil {
		snap.copy.retire()
		return false, err
	}
	r := generationRecipe(snap.Links)
	p := r.Params
	if e.opt.Params != nil {
		p = *e.opt.Params
	}
	snap.build(p, ovs)
	snap.settleLinks(snap.linksFresh, e.opt.Params != nil, r.K)
	e.gen++
	snap.Gen = e.gen
	snap.file = fs
	snap.LoadedAt = time.Now()
	snap.LoadTime = time.Since(started)
	snap.ReadTime = readTime
	if old := e.cur.Swap(snap); old != nil {
		old.copy.retire()
	}
	linkGen := int64(0)
	if snap.Links != nil {
		linkGen = snap.Links.Gen
	}
	e.logf("loaded snapshot %d: %d cases, link generation %d, in %s (file held %s)", snap.Gen, len(snap.Cases), linkGen, snap.LoadTime.Round(time.Millisecond), readTime.Round(time.Millisecond))
	return true, nil
}

// generationRecipe is the recipe generation g records; without a
// generation, or when its record is unreadable, the defaults; parameters
// that fail validation are replaced by the defaults (its k stays).
func generationRecipe(g *store.Generation) links.Recipe {
	r, err := links.RecipeOf(g)
	if err != nil {
		return links.DefaultRecipe()
	}
	if r.Params.Validate() != nil {
		r.Params = similarity.DefaultParams()
	}
	return r
}

// Watch checks the file every PollInterval and reloads when it changed,
// until ctx ends or Close is called. It returns at once when the interval
// is negative.
func (e *Engine) Watch(ctx context.Context) {
	if e.opt.PollInterval < 0 {
		return
	}
	t := time.NewTicker(e.opt.PollInterval)
	defer t.Stop()
	var lastErr string
	for {
		select {
		case <-ctx.Done():
			return
		case <-e.stop:
			return
		case <-t.C:
		}
		_, err := e.Reload(ctx)
		switch {
		case err != nil && err.Error() != lastErr:
			e.logf("reload: %v", err)
			lastErr = err.Error()
		case err == nil:
			lastErr = ""
		}
	}
}

// Close stops a running Watch and removes the copies of the views (a
// request still running keeps its copy until it ends). The engine holds no
// open database file otherwise.
func (e *Engine) Close() error {
	e.once.Do(func() {
		close(e.stop)
		if snap := e.cur.Load(); snap != nil {
			snap.copy.retire()
		}
		os.RemoveAll(e.copyDir)
	})
	return nil
}
