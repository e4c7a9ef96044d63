package analysis

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"incidents/data/incident"
)

// Period is a quarter ("2024Q3") or a year ("2024") to compare.
type Period struct {
	Year    int
	Quarter int // 1-4; 0 for a whole year
}

// ParsePeriod reads "2024Q3" (also "2024-Q3", "2024q3") or "2024".
func ParsePeriod(s string) (Period, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.ReplaceAll(t, "-", "")
	bad := incident.Errorf(incident.ErrInvalid, "period %q is neither a quarter nor a year", s).WithField("period").WithHint("write 2024Q3 or 2024")
	if len(t) == 4 {
		y, err := strconv.Atoi(t)
		if err != nil || y < 1900 || y > 9999 {
			return Period{}, bad
		}
		return Period{Year: y}, nil
	}
	if !quarterRE.MatchString(t) {
		return Period{}, bad
	}
	y, _ := strconv.Atoi(t[:4])
	if y < 1900 {
		return Period{}, bad
	}
	return Period{Year: y, Quarter: int(t[5] - '0')}, nil
}

func (p Period) String() string {
	if p.Quarter == 0 {
		return strconv.Itoa(p.Year)
	}
	return fmt.Sprintf("%dQ%d", p.Year, p.Quarter)
}

// Bounds returns the first instant of the period and the first instant
// after it, UTC.
func (p Period) Bounds() (start, end time.Time) {
	if p.Quarter == 0 {
		start = time.Date(p.Year, 1, 1, 0, 0, 0, 0, time.UTC)
		return start, start.AddDate(1, 0, 0)
	}
	start = time.Date(p.Year, time.Month(3*(p.Quarter-1)+1), 1, 0, 0, 0, 0, time.UTC)
	return start, start.AddDate(0, 3, 0)
}

// Previous returns the period just before p (of the same kind).
func (p Period) Previous() Period {
	if p.Quarter == 0 {
		return Period{Year: p.Year - 1}
	}
	if p.Quarter == 1 {
		return Period{Year: p.Year - 1, Quarter: 4}
	}
	return Period{Year: p.Year, Quarter: p.Quarter - 1}
}

// apply restricts q to the period.
func (p Period) apply(q Query) Query {
	if p.Quarter == 0 {
		q.Year = p.Year
	} else {
		q.Quarter = p.String()
	}
	return q
}

// Quarters lists the quarters that have cases, oldest first.
func Quarters(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT quarter FROM `+casesTable+` WHERE quarter IS NOT NULL ORDER BY quarter`)
	if err != nil {
		return nil, fmt.Errorf("listing quarters: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// LatestCompleteQuarter returns the newest quarter that has cases and has
// ended by now ("" when there is none): the natural subject of a quarterly
// report, compared with its Previous quarter.
func LatestCompleteQuarter(ctx context.Context, db *sql.DB, now time.Time) (string, error) {
	qs, err := Quarters(ctx, db)
	if err != nil {
		return "", err
	}
	for i := len(qs) - 1; i >= 0; i-- {
		p, err := ParsePeriod(qs[i])
		if err != nil {
			continue
		}
		if _, end := p.Bounds(); !end.After(now) {
			return qs[i], nil
		}
	}
	return "", nil
}
