/** What the plugin uses of Swagger UI's system (its plugin API). */
interface SwaggerUiSystem {
  React: { createElement(type: unknown, props: object | null, ...children: unknown[]): unknown };
  getComponent(name: string, container?: boolean): unknown;
  getConfigs(): { serverUsage?: string };
}

type Component = (props: object) => unknown;

/**
 * A Swagger UI plugin (its documented extension point: components wrapped by name). It runs in the
 * browser: Nest writes it into the page's init script from its source text, so it uses nothing from
 * outside its own body. It removes the Authorize buttons, so the page never invites pasting a key
 * (keys stay on servers), and shows the `serverUsage` Markdown of the configuration under the
 * document's description, with `{origin}` read as the page's origin.
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
