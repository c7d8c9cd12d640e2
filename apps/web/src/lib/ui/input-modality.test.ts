import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent } from '@testing-library/react';
import { lastInputTarget, trackInputModality } from './input-modality';

let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe('trackInputModality', () => {
  it('says keyboard after a key that moves or acts, pointer after a click or a tap', () => {
    stop = trackInputModality();
    const root = document.documentElement;
    expect(root.dataset.input).toBeUndefined();
    fireEvent.keyDown(document.body, { key: 'Tab' });
    expect(root.dataset.input).toBe('keyboard');
    fireEvent.mouseDown(document.body);
    expect(root.dataset.input).toBe('pointer');
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(root.dataset.input).toBe('keyboard');
    fireEvent.touchStart(document.body);
    expect(root.dataset.input).toBe('pointer');
  });

  it('ignores modifier keys and shortcuts, so copying after a click stays pointer use', () => {
    stop = trackInputModality();
    fireEvent.mouseDown(document.body);
    fireEvent.keyDown(document.body, { key: 'Control' });
    fireEvent.keyDown(document.body, { key: 'c', ctrlKey: true });
    expect(document.documentElement.dataset.input).toBe('pointer');
  });

  it('sees events that a component stops from bubbling', () => {
    stop = trackInputModality();
    const inner = document.createElement('button');
    inner.addEventListener('keydown', (e) => e.stopPropagation());
    document.body.append(inner);
    fireEvent.keyDown(inner, { key: 'Tab' });
    expect(document.documentElement.dataset.input).toBe('keyboard');
    inner.remove();
  });

  it('keeps where the last key or pointer went, modifiers included', () => {
    stop = trackInputModality();
    const button = document.createElement('button');
    document.body.append(button);
    fireEvent.mouseDown(button);
    expect(lastInputTarget()).toBe(button);
    fireEvent.keyDown(document.body, { key: 'Shift' });
    expect(lastInputTarget()).toBe(document.body);
    button.remove();
  });

  it('stops and forgets when asked', () => {
    stop = trackInputModality();
    fireEvent.keyDown(document.body, { key: 'Tab' });
    stop();
    stop = undefined;
    expect(document.documentElement.dataset.input).toBeUndefined();
    expect(lastInputTarget()).toBeNull();
    fireEvent.keyDown(document.body, { key: 'Tab' });
    expect(document.documentElement.dataset.input).toBeUndefined();
  });
});
