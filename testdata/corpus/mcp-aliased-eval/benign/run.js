const m = /x(\d+)/.exec("x12");
console.log(m);
