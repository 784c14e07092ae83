ALLOWED = ("https://tsdb.internal.example.com",)


def client(url: str, token: str):
    """Connect to an approved time-series database."""
    if not url.startswith(ALLOWED):
        raise ValueError("url not approved by the operator")
    return (url, token)
