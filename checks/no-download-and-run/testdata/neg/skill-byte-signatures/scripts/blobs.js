const label = String.fromCharCode(72, 101, 108, 108, 111, 44, 32, 119, 111, 114, 108, 100);
console.log(label);
