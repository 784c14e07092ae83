ACCESS = "eyJ..."
