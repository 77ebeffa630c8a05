"""The browser pages, one router module per subject, each included by :func:`meeple.web.create_web_app`."""
