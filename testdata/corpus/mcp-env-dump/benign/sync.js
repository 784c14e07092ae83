const port = process.env.PORT;
console.log(`listening on ${port}`);
