// The table form's ready-made clocks: one tap sets the move clock and the bank
// (games/templates/games/table_new.html). The two selects stay the truth: a preset
// is shown pressed while both hold its values.
(function () {
  "use strict";
  var group = document.querySelector(".clock-presets");
  var move = document.querySelector("select[name=clock_seconds]");
  var bank = document.querySelector("select[name=bank_seconds]");
  if (!group || !move || !bank) return;
  var buttons = Array.prototype.slice.call(group.querySelectorAll(".clock-preset"));
  function mark() {
    buttons.forEach(function (button) {
      var on = button.getAttribute("data-move") === move.value && button.getAttribute("data-bank") === bank.value;
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  buttons.forEach(function (button) {
    button.addEventListener("click", function () {
      move.value = button.getAttribute("data-move");
      bank.value = button.getAttribute("data-bank");
      mark();
    });
  });
  move.addEventListener("change", mark);
  bank.addEventListener("change", mark);
  mark();
})();
