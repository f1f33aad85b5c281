"""The Gradio web UI: tabs built from pure view functions."""
