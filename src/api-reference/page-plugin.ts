/** What the plugin uses of Swagger UI's system (its plugin API). */
interface SwaggerUiSystem {
  React: { createElement(type: unknown, props: object | null, ...children: unknown[]): unknown };
  getComponent(name: string, container?: boolean): unknown;
  getConfigs(): { serverUsage?: string };
}

type Component = (props: object) => unknown;

/**
 * Runs in the browser from its source text: it must use nothing outside its own body. Removes the
 * Authorize buttons (never invite pasting a key) and shows `serverUsage` under the description.
 */
export function referencePagePlugin(system: SwaggerUiSystem) {
  const h = system.React.createElement;
  const nothing = () => () => null;
  return {
    wrapComponents: {
      authorizeBtn: nothing,
      authorizeOperationBtn: nothing,
      // The container, not `info`: for OpenAPI 3.1 Swagger UI renders its own OAS31Info in it.
      InfoContainer: (Original: Component) => (props: object) => {
        const markdown = system.getComponent('Markdown', true);
        const origin = (globalThis as unknown as { location: { origin: string } }).location.origin;
        const usage = (system.getConfigs().serverUsage ?? '').split('{origin}').join(origin);
        return h(
          'div',
          null,
          h(Original, props),
          h(
            'div',
            { className: 'information-container wrapper', id: 'calling-from-a-server' },
            h(
              'section',
              { className: 'block col-12' },
              h('div', { className: 'info' }, h(markdown, { source: usage })),
            ),
          ),
        );
      },
    },
  };
}
