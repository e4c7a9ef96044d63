package web

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// The server answers only requests meant for it, from its own pages:
//   - Host must name the address the connection arrived on (the bound
//     address; on loopback also localhost, 127.0.0.1 or [::1] with the same
//     port) or one of Options.AllowHosts. A page served under another name
//     is how DNS rebinding lets a web site read a local server.
//   - A request that changes state or runs SQL (any method but GET, HEAD
//     and OPTIONS) must not come from another origin: browsers say where a
//     request comes from in Sec-Fetch-Site and Origin, and
//     http.CrossOriginProtection refuses a cross-origin one. Clients that
//     are not browsers send neither and are not at risk of forged requests.
//   - /mcp also refuses a foreign Origin on GET, as the MCP specification
//     asks of servers.

// guard holds the request checks of a Server.
type guard struct {
	allow map[string]bool // lower-case host or host:port from AllowHosts
	cop   *http.CrossOriginProtection
}

func newGuard(allowHosts []string) *guard {
	g := &guard{allow: map[string]bool{}, cop: http.NewCrossOriginProtection()}
	for _, h := range allowHosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			g.allow[h] = true
		}
	}
	return g
}

// errForeignHost and errForeignOrigin explain refusals.
var (
	errForeignHost   = errors.New("this server does not answer to that host name")
	errForeignOrigin = errors.New("cross-origin request refused")
)

// check returns why r must be refused (nil: serve it).
func (g *guard) check(r *http.Request) error {
	if !g.hostAllowed(r) {
		return errForeignHost
	}
	if err := g.cop.Check(r); err != nil {
		return errForeignOrigin
	}
	if r.URL.Path == "/mcp" {
		if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
			return errForeignOrigin
		}
	}
	return nil
}

// hostAllowed checks the Host header against the address the connection
// arrived on and the allowed hosts. Requests that did not arrive on a
// listener (handlers called directly in tests) have no such address and
// pass.
func (g *guard) hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil {
		return true
	}
	host, port := splitHost(r.Host)
	if host == "" {
		return false
	}
	if g.allow[host] || (port != "" && g.allow[net.JoinHostPort(host, port)]) {
		return true
	}
	if port == "" {
		port = "80"
	}
	lhost, lport, err := net.SplitHostPort(local.String())
	if err != nil || port != lport {
		return false
	}
	if host == strings.ToLower(lhost) {
		return true
	}
	lip := net.ParseIP(lhost)
	if lip == nil || !lip.IsLoopback() {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// splitHost splits a Host header into a lower-case host (IPv6 without
// brackets) and its port ("" when it names none).
func splitHost(hostport string) (string, string) {
	hostport = strings.ToLower(hostport)
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		return h, p
	}
	return strings.Trim(hostport, "[]"), ""
}

// sameOrigin reports whether an Origin header names the host the request
// was sent to.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, host)
}

// refuse answers a request the guard refused: JSON under /api/ and /mcp,
// an error page elsewhere.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	msg, hint := "Forbidden: "+err.Error(), "open the pages at the address the server listens on"
	if errors.Is(err, errForeignHost) {
		msg += " (Host: " + r.Host + ")"
		hint = "open the pages at the address the server listens on, or start it with --allow-host NAME"
	} else {
		hint = "send the request from the server's own pages, or from a client that is not a browser"
	}
	if strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/mcp" {
		writeError(w, http.StatusForbidden, msg, hint)
		return
	}
	s.pageError(w, r, http.StatusForbidden, msg, hint)
}
