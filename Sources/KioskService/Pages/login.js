// The login page (login.html): sends the token to POST /login, which sets the session cookie, and
// opens the page of the role it gives.
import { $, login, tokenTravelsInClear } from "/assets/common.js";

$("clear-text").hidden = !tokenTravelsInClear(location);
$("login").addEventListener("submit", (e) => {
  e.preventDefault();
  const token = $("token").value;
  $("token").value = "";
  login(token).then((role) => {
    location.assign(role === "operator" ? "/admin" : "/");
  }).catch((error) => {
    $("message").textContent = error.message;
    $("message").hidden = false;
  });
});
