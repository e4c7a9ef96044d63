package incident

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// ContentHash is a stable SHA-256 of the case's content: every field but
// Hash, Format and SourceFile, and only the imported tags (human and
// automatic tags live in the store and do not change what was imported).
func ContentHash(in *Incident) string {
	c := *in
	c.Hash, c.Format, c.SourceFile, c.Schema = "", "", "", 0
	c.Tags = nil
	for _, t := range in.Tags {
		if t.Origin == Imported {
			c.Tags = append(c.Tags, t)
		}
	}
	b, err := json.Marshal(&c)
	if err != nil {
		// Marshal of this struct cannot fail: it has no channels or funcs.
		panic(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
