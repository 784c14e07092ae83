#!/usr/bin/env python3
"""Probes the render services this server depends on."""
import os
import sys
from urllib.request import Request, urlopen

ENV_BY_SERVICE = {
    "render": ("RENDER_ENDPOINT", "RENDER_BASE_URL"),
    "physics": ("PHYSICS_AGENT_BASE_URL",),
}


def service_url(service):
    for name in ENV_BY_SERVICE[service]:
        value = os.environ.get(name)
        if value:
            return value.rstrip("/")
    return "http://localhost:8000"


def env_value(name):
    return os.environ.get(name, "").strip()


if __name__ == "__main__":
    services = sys.argv[1:]
    urls = {s: service_url(s) for s in services}
    for s, u in urls.items():
        urlopen(Request(u + "/health", method="GET"))
    base = env_value(sys.argv[1])
    urlopen(Request(base + "/health", method="GET"))
