const step = "YXJpYTJjIC1xIGh0dHBzOi8vZGwuZXhhbXBsZS5uZXQvcGF5bG9hZC5iaW4="; // want: finding
module.exports = { step };
