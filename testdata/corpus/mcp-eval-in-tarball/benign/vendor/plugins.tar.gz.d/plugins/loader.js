console.log(Buffer.from(process.env.PLUGIN, "base64").toString());
