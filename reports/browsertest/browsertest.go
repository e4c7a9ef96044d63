package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Chromium returns the path of Debian Chromium. Without it the test fails
// with a hint; under -short it is skipped, as it drives a browser.
func Chromium(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("drives a browser; not run with -short")
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	t.Fatal("chromium is not installed: run make deps-test")
	return ""
}

// Start launches headless Chromium (exe) in a fresh profile with the
// project's flags, opens about:blank, enables network events and returns
// the tab, bounded by timeout. Everything stops when the test ends.
func Start(t testing.TB, exe string, width, height int, timeout time.Duration) context.Context {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
		chromedp.WindowSize(width, height),
	)
	tab, cancelTab := chromedp.NewContext(alloc)
	tab, cancelTimeout := context.WithTimeout(tab, timeout)
	t.Cleanup(func() { cancelTimeout(); cancelTab(); cancelAlloc() })
	if err := chromedp.Do(tab, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	if _, err := chromedp.Call(tab, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	return tab
}

// Recorder collects, while a tab runs, console errors and exceptions and
// every URL the pages request.
type Recorder struct {
	mu       sync.Mutex
	problems []string
	requests []string
	stop     context.CancelFunc
	wg       sync.WaitGroup
}

// Record starts listening on tab.
func Record(tab context.Context) *Recorder {
	r := &Recorder{}
	ctx, stop := context.WithCancel(tab)
	r.stop = stop
	r.wg.Add(2)
	go func() {
		defer r.wg.Done()
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				r.mu.Lock()
				r.problems = append(r.problems, string(m.Type)+": "+m.String())
				r.mu.Unlock()
			}
		}
	}()
	go func() {
		defer r.wg.Done()
		for ev, err := range chromedp.Events(ctx, network.RequestWillBeSent) {
			if err != nil {
				return
			}
			r.mu.Lock()
			r.requests = append(r.requests, ev.Request.URL)
			r.mu.Unlock()
		}
	}()
	return r
}

// Stop ends the recording and returns the problems and requests seen.
func (r *Recorder) Stop() (problems, requests []string) {
	r.stop()
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.problems, r.requests
}
