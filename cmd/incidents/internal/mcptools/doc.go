// Package mcptools exposes the incident library to Model Context Protocol
// clients: search_incidents, get_incident, list_incidents,
// similar_incidents, get_topic, vocab, stats and query_sql, each with a
// typed input whose parameters are described in its JSON schema, and a
// declared output schema: every answer is a JSON object (structured
// content, also sent as text) that validates against it. The tools
// answer from the same engine.Engine as the web server, so a client sees
// the same snapshot as the pages. NewServer builds the server; 'incidents
// mcp' runs it over StdioTransport, which answers every request read
// before stdin ended, and 'incidents serve' mounts HTTPHandler at /mcp.
package mcptools
