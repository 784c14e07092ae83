console.log("server")
