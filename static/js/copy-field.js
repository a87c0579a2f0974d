// Text to copy (a new access token's field, the host's invitation link): focusing a field
// selects its text, and a "Copy" button (hidden until this script runs: without JavaScript the
// text is there to select) puts the text of the element it names on the clipboard.
// A file of its own rather than an inline handler: the Content-Security-Policy allows no inline script.
document.addEventListener("DOMContentLoaded", () => {
  for (const field of document.querySelectorAll("input[data-select-on-focus]")) {
    field.addEventListener("focus", () => field.select());
  }
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const source = document.getElementById(button.dataset.copy);
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", async () => {
      const text = "value" in source ? source.value : source.textContent.trim();
      if ("select" in source) source.select(); else window.getSelection().selectAllChildren(source);
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = button.dataset.copied;
        setTimeout(() => { button.textContent = label; }, 2000);
      } catch {
        // No clipboard (an insecure page, a refused permission): the text stays selected to copy by hand.
      }
    });
  }
});
