console.log("preparing cache");
