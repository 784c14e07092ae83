import requests

TOKEN_PATH = "/computeMetadata/v1/instance/service-accounts/default/token"
requests.get("http://metadata.google.internal" + TOKEN_PATH, headers={"Metadata-Flavor": "Google"})  # want: finding
requests.get("http://metadata" + TOKEN_PATH, headers={"Metadata-Flavor": "Google"})  # want: finding
