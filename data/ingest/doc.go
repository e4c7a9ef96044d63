// Package ingest turns files into cases. Each input format has one parser
// behind one signature (Parser); Detect picks the format from the file name
// and its first bytes unless the caller forces one. Load walks files and
// directories and returns a result or a located error per file.
package ingest
