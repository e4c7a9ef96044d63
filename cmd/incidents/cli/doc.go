// Package cli implements the incidents command line: one file per
// subcommand, each registering a cobra command built from an *App that
// carries the injected stdin, stdout and stderr. Run never exits the
// process; package main chooses exit codes.
package cli
