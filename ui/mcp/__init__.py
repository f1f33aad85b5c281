"""The MCP server: gpu-advisor's tools for agent hosts (Claude Desktop, Cursor, VS Code)."""
