// Package browsertest starts Debian Chromium for the project's browser
// tests through chromedp, with the launch flags every test uses, and records
// what a page did: console errors, exceptions and the URLs it requested.
// Only tests import it.
package browsertest
