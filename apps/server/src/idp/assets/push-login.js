/* global document, window, EventSource */
// The page of the embedded sign-in that waits for a push. A static script, because the sign-in pages
// allow no inline script (CSP script-src 'self'). It listens for the moment the push stops waiting
// (server-sent events) and then posts the form; the server reads the answer itself. The countdown
// posts it too when time runs out. Without this script the person presses Continue.
(function () {
  'use strict';
  var form = document.getElementById('push-form');
  if (!form) return;
  var countdown = document.getElementById('push-countdown');
  var status = document.getElementById('push-status');
  var sent = false;
  function submit() {
    if (sent) return;
    sent = true;
    if (status) status.textContent = 'Checking the answer...';
    form.submit();
  }

  if (window.EventSource) {
    var events = new EventSource(form.getAttribute('data-events-url'), { withCredentials: true });
    events.addEventListener('state', function () {
      events.close();
      submit();
    });
  }

  if (countdown) {
    var expiresAt = Date.parse(countdown.getAttribute('data-expires-at'));
    var tick = function () {
      var left = Math.max(0, Math.ceil((expiresAt - Date.now()) / 1000));
      countdown.textContent = left === 1 ? '1 second left' : left + ' seconds left';
      // A little after the end, so the server too sees it run out.
      if (Date.now() > expiresAt + 500) {
        window.clearInterval(timer);
        submit();
      }
    };
    var timer = window.setInterval(tick, 1000);
    tick();
  }
})();
