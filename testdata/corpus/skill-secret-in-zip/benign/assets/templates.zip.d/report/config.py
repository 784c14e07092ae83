API_KEY = os.environ["API_KEY"]
