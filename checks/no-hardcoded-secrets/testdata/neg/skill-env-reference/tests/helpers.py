ACCESS = "eyJ..."
commit = "3f2a9b1c4d5e6f708192a3b4c5d6e7f8091a2b3c"
aws_access_key_id = "AKIAIOSFODNN7EXAMPLE"
