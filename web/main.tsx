/** Entry: mount the app and open the live connection (its state shows in the header on every view). */
import { render } from "preact";
import { App } from "./app.tsx";
import { startLive } from "./live/live-store.ts";
import { applyTheme, storedTheme } from "./theme.ts";

applyTheme(storedTheme());
startLive();
render(<App />, document.getElementById("app")!);
