print("fill")
