"""`gpu-advisor slack [--http --port 3000]`: Socket Mode (SLACK_APP_TOKEN) or HTTP events (SLACK_SIGNING_SECRET)."""
from __future__ import annotations

import sys


def serve(http: bool, host: str, port: int, backend: str) -> int:
    from ui.server import AppContext, ServeSettings
    from ui.slack.app import SlackSettings, build_app, http_asgi

    settings = SlackSettings(backend=backend)
    missing = settings.missing(http)
    if missing:
        mode = "HTTP mode (--http)" if http else "Socket Mode"
        raise ValueError(f"{mode} needs {' and '.join(missing)} in the environment "
                         f"(see ui/slack/manifest.yaml and the README's Slack section)")
    ctx = AppContext(ServeSettings(backend=backend))
    ctx.warm_up()
    app = build_app(settings, ctx, http=http)
    if http:
        import uvicorn

        print(f"gpu-advisor Slack adapter: events at http://{host}:{port}/slack/events (backend {ctx.backend}, "
              f"sessions {ctx.store.describe()})", file=sys.stderr, flush=True)
        uvicorn.run(http_asgi(app), host=host, port=port, log_level="warning", access_log=False)
    else:
        from slack_bolt.adapter.socket_mode import SocketModeHandler

        print(f"gpu-advisor Slack adapter: Socket Mode (backend {ctx.backend}, sessions {ctx.store.describe()})",
              file=sys.stderr, flush=True)
        SocketModeHandler(app, settings.app_token, web_client=app.client).start()  # honours SLACK_API_URL
    return 0
