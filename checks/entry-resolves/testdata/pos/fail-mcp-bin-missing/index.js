console.log("not the bin");
