const T = [72, 101, 108, 108, 111, 44, 32, 119, 111, 114, 108, 100];
console.log(T.map((c) => String.fromCharCode(c)).join(""));
console.log(String.fromCharCode(...T));
console.log(Reflect.get({ name: "x" }, "name"));
