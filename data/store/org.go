package store

// OrgKeySQL is the SQL form of incident.OrgKey for the column col: the
// organisation trimmed, each run of white space one space, in lower case.
// Every organisation filter and grouping compares by it, so a case stored
// before organisations were stored by incident.NormalOrg (" Acme  Widgets")
// is found by the spelling it has today ("acme widgets"). The white space
// is what Go's unicode.IsSpace calls space, as strings.Fields splits on.
// Compare it with lower(?) over incident.NormalOrg of the value given.
func OrgKeySQL(col string) string {
	return `lower(trim(regexp_replace(` + col + `, '[\t\n\v\f\r \x{85}\p{Z}]+', ' ', 'g')))`
}
