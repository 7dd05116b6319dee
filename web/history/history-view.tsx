/** Picks the history view for a route. */
import type { JSX } from "preact";
import type { Route } from "../router.tsx";
import { Empty } from "../ui/empty.tsx";

export function HistoryView(props: { route: Exclude<Route, { name: "live" }> }): JSX.Element {
  const { route } = props;
  switch (route.name) {
    default:
      return (
        <Empty title="No such page">
          <p>{"path" in route ? route.path : location.pathname} is not a view of this page. Use the links above.</p>
        </Empty>
      );
  }
}
