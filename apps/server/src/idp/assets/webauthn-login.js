/* global document, window */
// The passkey / security key step of the embedded sign-in. A static script, because the
// sign-in pages allow no inline script (CSP script-src 'self'). It asks the server for the request
// options, lets the browser talk to the authenticator (navigator.credentials.get) and posts the
// signed answer back with the form; the server checks everything.
(function () {
  'use strict';
  var form = document.getElementById('webauthn-form');
  if (!form) return;
  var button = document.getElementById('webauthn-start');
  var status = document.getElementById('webauthn-status');

  function toBuffer(b64url) {
    var b64 = b64url.replace(/-/g, '+').replace(/_/g, '/');
    while (b64.length % 4) b64 += '=';
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes.buffer;
  }
  function toB64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var bin = '';
    for (var i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  function say(message) {
    status.textContent = message;
    status.hidden = false;
  }

  if (!window.PublicKeyCredential || !navigator.credentials) {
    button.disabled = true;
    say('This browser cannot use a passkey or security key. Enter a code instead.');
    return;
  }

  button.addEventListener('click', function () {
    button.disabled = true;
    status.hidden = true;
    fetch(form.getAttribute('data-options-url'), { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (res) {
        if (!res.ok) throw new Error('options');
        return res.json();
      })
      .then(function (body) {
        var o = body.options;
        var publicKey = {
          challenge: toBuffer(o.challenge),
          rpId: o.rpId,
          timeout: o.timeout,
          userVerification: o.userVerification,
          allowCredentials: (o.allowCredentials || []).map(function (c) {
            return { type: 'public-key', id: toBuffer(c.id), transports: c.transports };
          }),
        };
        return navigator.credentials.get({ publicKey: publicKey }).then(function (cred) {
          var r = cred.response;
          var json = {
            id: cred.id,
            rawId: toB64url(cred.rawId),
            type: cred.type,
            response: {
              clientDataJSON: toB64url(r.clientDataJSON),
              authenticatorData: toB64url(r.authenticatorData),
              signature: toB64url(r.signature),
            },
            clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
          };
          if (r.userHandle) json.response.userHandle = toB64url(r.userHandle);
          if (cred.authenticatorAttachment) json.authenticatorAttachment = cred.authenticatorAttachment;
          form.elements.challengeId.value = body.challengeId;
          form.elements.credential.value = JSON.stringify(json);
          form.submit();
        });
      })
      .catch(function () {
        button.disabled = false;
        say('Your passkey or security key did not answer. Try again, or enter a code.');
      });
  });
})();
