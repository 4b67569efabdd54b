document.getElementById("app")!.textContent = "thaiboard";
