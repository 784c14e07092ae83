{
  "mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
  "verificationMaterial": {},
  "dsseEnvelope": {
    "payload": "eyJfdHlwZSI6ICJodHRwczovL2luLXRvdG8uaW8vU3RhdGVtZW50L3YxIiwgInN1YmplY3QiOiBbeyJuYW1lIjogInNpZ25lZCIsICJkaWdlc3QiOiB7InNoYTI1NiI6ICIwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwIn19XSwgInByZWRpY2F0ZVR5cGUiOiAiaHR0cHM6Ly9tb2RlbF9zaWduaW5nL3NpZ25hdHVyZS92MS4wIiwgInByZWRpY2F0ZSI6IHsic2VyaWFsaXphdGlvbiI6IHsibWV0aG9kIjogImZpbGVzIiwgImhhc2hfdHlwZSI6ICJzaGEyNTYiLCAiaWdub3JlX3BhdGhzIjogW119LCAicmVzb3VyY2VzIjogW3sibmFtZSI6ICJTS0lMTC5tZCIsICJhbGdvcml0aG0iOiAic2hhMjU2IiwgImRpZ2VzdCI6ICI2YzU1Y2U4YzUzM2ZiNjJjODY5NzkxZTQ2NmY5YThhZWI3NDExZTkzN2E5MGRjNDg2NzY3NWMyZTkzODA5YTBmIn1dfX0=",
    "payloadType": "application/vnd.in-toto+json",
    "signatures": [
      {
        "sig": "AAAA"
      }
    ]
  }
}