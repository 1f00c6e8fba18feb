import { render } from "preact";
import { App } from "./app";
import { loadSession } from "./state/session";
import "./styles/tokens.css";
import "./styles/base.css";

const root = document.getElementById("app");
if (root) {
  root.textContent = "";
  render(<App />, root);
  void loadSession();
}
