"""The Slack adapter: slack-bolt over the same assistant (a thread is a session)."""
