"""Where agent builders and eval teams already work: one module per framework.

- :mod:`groundcheck.integrations.inspect`: an inspect-ai ``@scorer`` (extra ``inspect``);
- :mod:`groundcheck.integrations.mcp`: an MCP server over stdio (extra ``mcp``);
- :mod:`groundcheck.integrations.langchain`: a LangChain callback handler (extra ``langchain``);
- :mod:`groundcheck.integrations.openai_agents`: an OpenAI Agents SDK tracing processor (extra
  ``openai-agents``);
- :mod:`groundcheck.integrations.otel`: OpenTelemetry evaluation events (extra ``otel``).

The pytest helpers need no extra and live in :mod:`groundcheck.testing`. This package imports
nothing: each module imports its framework when the user imports that module, never before,
so ``import groundcheck`` stays free of every framework.
"""
