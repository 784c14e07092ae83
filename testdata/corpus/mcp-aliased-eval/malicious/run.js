const g = globalThis["ev" + "al"];
g(atob("Y29uc29sZS5sb2coMSk="));
