package store

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// copyAlias is the name the copy being written is attached under.
const copyAlias = "incidents_copy"

// WriteCopy writes a new database file at path holding every public view
// of s as a table of the same name (main.incidents, main.tags, ...) and
// the committed link generations (core.live_generations, which
// CurrentGeneration reads).
// Statistics, reports and ad hoc SQL answer from such a copy exactly as
// from s, while s's file is free for writers. An existing file at path is
// replaced. The copy is written inside one read of s, so it shows one
// state of the database. check (nil: none) is called before each table;
// its error abandons the copy, which is then removed.
func (s *Store) WriteCopy(ctx context.Context, path string, check func() error) (err error) {
	for _, p := range []string{path, path + ".wal"} {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	c, err := s.h.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `ATTACH '`+strings.ReplaceAll(path, "'", "''")+`' AS `+copyAlias+` (READ_WRITE)`); err != nil {
		return fmt.Errorf("creating the copy %s: %w", path, err)
	}
	defer func() {
		if _, derr := c.ExecContext(context.Background(), `DETACH `+copyAlias); derr != nil && err == nil {
			err = fmt.Errorf("closing the copy %s: %w", path, derr)
		}
		if err != nil {
			os.Remove(path)
			os.Remove(path + ".wal")
		}
	}()
	stmts := []string{`BEGIN TRANSACTION`}
	for _, v := range Views() {
		name := `"` + strings.ReplaceAll(v.Name, `"`, `""`) + `"`
		stmts = append(stmts, `CREATE TABLE `+copyAlias+`.main.`+name+` AS SELECT * FROM main.`+name)
	}
	stmts = append(stmts, `CREATE SCHEMA `+copyAlias+`.core`,
		`CREATE TABLE `+copyAlias+`.core.live_generations AS SELECT * FROM core.live_generations`, `COMMIT`)
	for _, q := range stmts {
		if check != nil {
			if err := check(); err != nil {
				c.ExecContext(context.Background(), `ROLLBACK`)
				return err
			}
		}
		if _, err := c.ExecContext(ctx, q); err != nil {
			c.ExecContext(context.Background(), `ROLLBACK`)
			return fmt.Errorf("copying the public views to %s: %w", path, err)
		}
	}
	return nil
}
